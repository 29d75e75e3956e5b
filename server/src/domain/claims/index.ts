export { maskName } from './claims'
