import { AgreementDocument } from '../../features/auth/components/agreement-document'
import { useAgreement } from '../../features/auth/hooks/use-agreement'
import { formatUpdatedAt, splitParagraphs } from '../../features/launch/privacy-consent'

export default function UserAgreementAliasPage() {
  const view = useAgreement('user')
  return (
    <AgreementDocument
      view={view}
      splitParagraphs={splitParagraphs}
      formatUpdatedAt={formatUpdatedAt}
    />
  )
}
