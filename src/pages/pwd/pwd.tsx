import { useParams } from '@/hooks/use-params'
import {
  ChangePasswordForm,
  ForgotPasswordForm,
} from '../../features/auth/components/password-view'
import {
  passwordModeOf,
  useChangePassword,
  useForgotPassword,
} from '../../features/auth/hooks/use-password'

function ChangePassword() {
  return <ChangePasswordForm view={useChangePassword()} />
}

function ForgotPassword() {
  return <ForgotPasswordForm view={useForgotPassword()} />
}

/** 修改密码, or with `?mode=forgot` 找回密码 (a code to the phone and a new password). */
export default function PasswordPage() {
  const params = useParams()
  return passwordModeOf(params) === 'forgot' ? <ForgotPassword /> : <ChangePassword />
}
