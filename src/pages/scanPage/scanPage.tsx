import { ScanView } from '../../features/scan/components/scan-view'
import { useScanner } from '../../features/scan/hooks/use-scanner'

export default function ScanPage() {
  const scanner = useScanner()
  return <ScanView scanner={scanner} />
}
