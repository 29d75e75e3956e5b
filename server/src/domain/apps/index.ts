export { demoWebOriginsStep, ensureFeatures } from './features'
