export * from './api-keys'
export * from './hospitals'
export { DEMO_HOSPITAL_KEYS, demoHospitalKeysStep, removeDemoHospitalKeys } from './demo-keys'
export { demoHospitalRegionsStep, demoHospitalsStep } from './directory'
