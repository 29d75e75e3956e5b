// daikon (dev dependency, its own pure-JS decoders) is the independent oracle for decoded pixels.
declare module 'daikon' {
  interface DaikonImage {
    getInterpretedData(asArray: boolean, asObject: boolean, frameIndex?: number): Float32Array
  }
  const daikon: { Series: { parseImage(view: DataView): DaikonImage } }
  export default daikon
}

// The codec packages' full builds carry encoders; tests use them to write lossless instances.
interface TestEncoder {
  getDecodedBuffer(info: object): Uint8Array
  setNearLossless?(value: number): void
  encode(): void
  getEncodedBuffer(): Uint8Array
  delete(): void
}
type QuietModule = { print?: () => void; printErr?: () => void }

declare module '@cornerstonejs/codec-charls/wasmjs' {
  const factory: (module?: QuietModule) => Promise<{ JpegLSEncoder: new () => TestEncoder }>
  export default factory
}

declare module '@cornerstonejs/codec-openjpeg/wasmjs' {
  const factory: (module?: QuietModule) => Promise<{ J2KEncoder: new () => TestEncoder }>
  export default factory
}
