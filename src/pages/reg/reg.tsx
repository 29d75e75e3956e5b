import { useParams } from '@/hooks/use-params'
import { RegisterView } from '../../features/auth/components/register-view'
import { useRegister } from '../../features/auth/hooks/use-register'

export default function RegisterPage() {
  const params = useParams()
  return <RegisterView view={useRegister(params)} />
}
