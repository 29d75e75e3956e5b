export { forgetFamilyOf, mergeFamily } from './members'
