export { analyseText, getGlossaryTerm } from './knowledge'
