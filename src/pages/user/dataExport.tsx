import { RequireLogin } from '../../components/require-login'
import { DataExportView } from '../../features/data-export/components/data-export-view'
import { useDataExport } from '../../features/data-export/hooks/use-data-export'

function DataExportContent() {
  return <DataExportView model={useDataExport()} />
}

export default function UserDataExportPage() {
  return (
    <RequireLogin text="登录后才能导出您的数据">
      <DataExportContent />
    </RequireLogin>
  )
}
