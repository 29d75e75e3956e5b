export { BarCode, BAR_CODE_INVALID, type BarCodeProps } from './bar-code-view'
export { code128Modules, canEncode } from './code128'
