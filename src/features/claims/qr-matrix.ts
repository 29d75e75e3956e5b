// The encoder moved to src/components/qr-code so the sharing feature draws its links with it too.
export * from '@/components/qr-code/qr-matrix'
