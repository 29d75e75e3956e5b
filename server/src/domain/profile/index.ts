export { DELETED_NICKNAME, eraseAccount, PROOF_WRONG_PASSWORD, proveIdentity } from './account'
export { removeStoredFiles } from './avatars'
export { bindIdCard, ID_CARD_BINDS_PER_DAY, ID_CARD_TAKEN } from './id-cards'
