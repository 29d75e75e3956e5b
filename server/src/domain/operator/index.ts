export { removeUnattachedOperatorFiles } from './content'
