// dcmjs ships no types; the tests (server and e2e) read Part 10 files with it (DicomMessage.readFile).
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
