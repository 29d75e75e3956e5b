// What other features' pages use of this feature (E's personalImage/detail opens the exam QR code).
export { QrCodeSheet, type QrCodeSheetProps } from './components/qr-code-sheet'
