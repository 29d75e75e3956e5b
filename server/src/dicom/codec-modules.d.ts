// The codec packages ship no types; these describe the small part of their emscripten/embind
// surface we call (the same calls cornerstone's image loader makes).

interface WasmFrameInfo {
  width: number
  height: number
  bitsPerSample: number
  componentCount: number
  isSigned?: boolean
}

interface WasmDecoder {
  getEncodedBuffer(length: number): Uint8Array
  getDecodedBuffer(): Uint8Array
  decode(): void
  getFrameInfo(): WasmFrameInfo
  delete(): void
}

interface WasmEncoder {
  getDecodedBuffer(frameInfo: WasmFrameInfo): Uint8Array
  getEncodedBuffer(): Uint8Array
  setQuality(quality: number): void
  encode(): void
  delete(): void
}

declare module '@cornerstonejs/codec-libjpeg-turbo-8bit/wasmjs' {
  const factory: (module?: {
    print?: (text: string) => void
    printErr?: (text: string) => void
  }) => Promise<{
    JPEGDecoder: new () => WasmDecoder
    JPEGEncoder: new () => WasmEncoder
  }>
  export default factory
}

declare module '@cornerstonejs/codec-charls/decodewasmjs' {
  const factory: (module?: {
    print?: (text: string) => void
    printErr?: (text: string) => void
  }) => Promise<{ JpegLSDecoder: new () => WasmDecoder }>
  export default factory
}

declare module '@cornerstonejs/codec-openjpeg/decodewasmjs' {
  const factory: (module?: {
    print?: (text: string) => void
    printErr?: (text: string) => void
  }) => Promise<{ J2KDecoder: new () => WasmDecoder }>
  export default factory
}

declare module 'jpeg-lossless-decoder-js' {
  export class Decoder {
    decompress(buffer: ArrayBuffer, offset?: number, length?: number): ArrayBuffer
    numComp: number
  }
}
