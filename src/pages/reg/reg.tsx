import { useRouter } from '@tarojs/taro'
import { RegisterView } from '../../features/auth/components/register-view'
import { useRegister } from '../../features/auth/hooks/use-register'

export default function RegisterPage() {
  const { params } = useRouter()
  return <RegisterView view={useRegister(params)} />
}
