import { useRouter } from '@tarojs/taro'
import { RegInfoView } from '../../features/auth/components/reg-info-view'
import { useRegInfo } from '../../features/auth/hooks/use-reg-info'

export default function RegInfoPage() {
  const { params } = useRouter()
  return <RegInfoView view={useRegInfo(params)} />
}
