export * from './api-keys'
export * from './hospitals'
export { DEMO_HOSPITAL_KEYS, demoHospitalKeysStep, removeDemoHospitalKeys } from './demo-keys'
export {
  demoHospitalRegionsStep,
  demoHospitalsStep,
  findHospitalRoom,
  HOSPITAL_NOT_FOUND,
  ROOM_NOT_FOUND,
} from './directory'
export { hospitalColumns, toHospital } from './shape'
