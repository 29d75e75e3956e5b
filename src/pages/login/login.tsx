import { useState } from 'react'
import { useParams } from '@/hooks/use-params'
import { LoginView } from '../../features/auth/components/login-view'
import { isDesktopScreen } from '../../features/auth/desktop'
import { useLogin } from '../../features/auth/hooks/use-login'

export default function LoginPage() {
  const params = useParams()
  // Decided once: the tabs should not jump when the window is resized.
  const [desktop] = useState(isDesktopScreen)
  const view = useLogin(params, { thirdParty: true, qr: desktop })
  return <LoginView view={view} />
}
