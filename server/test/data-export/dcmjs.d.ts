// dcmjs ships no types; the tests read a Part 10 file with it (DicomMessage.readFile).
declare module 'dcmjs' {
  interface DicomElement {
    vr: string
    Value?: unknown[]
  }
  type DicomDataset = Record<string, DicomElement>
  const dcmjs: {
    data: {
      DicomMessage: {
        readFile(buffer: ArrayBuffer): { meta: DicomDataset; dict: DicomDataset }
      }
    }
  }
  export default dcmjs
}
