export { removeUnattachedOperatorFiles } from './content'
export { OPERATOR_PAGE_SIZE, recordOperatorAction } from './audit'
