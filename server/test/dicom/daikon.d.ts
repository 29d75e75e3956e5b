// daikon (dev dependency, its own pure-JS decoders) is the independent oracle for decoded pixels.
declare module 'daikon' {
  interface DaikonImage {
    getInterpretedData(asArray: boolean, asObject: boolean, frameIndex?: number): Float32Array
  }
  const daikon: { Series: { parseImage(view: DataView): DaikonImage } }
  export default daikon
}
