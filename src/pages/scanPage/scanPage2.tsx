import { ScanView } from '../../features/scan/components/scan-view'
import { useScanner } from '../../features/scan/hooks/use-scanner'

/** The direct variant: opens the scanner (weapp) or the camera (H5) as soon as it shows. */
export default function ScanPage2() {
  const scanner = useScanner({ autoStart: true })
  return <ScanView scanner={scanner} />
}
