import { DiagnosticsView } from '../../features/diagnostics/components/diagnostics-view'
import { useDiagnostics } from '../../features/diagnostics/hooks/use-diagnostics'

export default function DiagnosticsPage() {
  const model = useDiagnostics()
  return <DiagnosticsView model={model} />
}
