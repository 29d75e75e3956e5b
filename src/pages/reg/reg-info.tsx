import { useParams } from '@/hooks/use-params'
import { RegInfoView } from '../../features/auth/components/reg-info-view'
import { useRegInfo } from '../../features/auth/hooks/use-reg-info'

export default function RegInfoPage() {
  const params = useParams()
  return <RegInfoView view={useRegInfo(params)} />
}
