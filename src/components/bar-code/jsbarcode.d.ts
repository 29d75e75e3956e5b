// jsbarcode ships no types for its encoders; only CODE128's is used (its auto A/B/C switching).
declare module 'jsbarcode/bin/barcodes/CODE128' {
  export class CODE128 {
    constructor(data: string, options: Record<string, unknown>)
    valid(): boolean
    /** `data`: one character per module, '1' a bar and '0' a space, quiet zones excluded. */
    encode(): { text: string; data: string }
  }
}
