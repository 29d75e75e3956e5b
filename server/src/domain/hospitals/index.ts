export * from './api-keys'
export * from './hospitals'
