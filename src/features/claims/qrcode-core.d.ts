// qrcode's encoder alone (its package entry would bring the Node renderers into the mini-program).
declare module 'qrcode/lib/core/qrcode' {
  export function create(
    data: string | { data: string | number[]; mode?: 'byte' | 'numeric' | 'alphanumeric' }[],
    options?: { errorCorrectionLevel?: 'L' | 'M' | 'Q' | 'H' },
  ): { modules: { size: number; data: Uint8Array } }
}
