import { useParams } from '@/hooks/use-params'
import { LoginView } from '../../features/auth/components/login-view'
import { useLogin } from '../../features/auth/hooks/use-login'

/** The iOS variant: the same login, without any third-party sign-in. */
export default function LoginIosPage() {
  const params = useParams()
  const view = useLogin(params, { thirdParty: false, qr: false })
  return <LoginView view={view} />
}
