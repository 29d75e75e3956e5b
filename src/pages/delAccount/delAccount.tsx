import { DeleteAccountView } from '../../features/auth/components/delete-account-view'
import { useDeleteAccount } from '../../features/auth/hooks/use-delete-account'

export default function DeleteAccountPage() {
  return <DeleteAccountView view={useDeleteAccount()} />
}
