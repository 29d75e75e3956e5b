import { AgreementDocument } from '../../features/auth/components/agreement-document'
import { useAgreement } from '../../features/auth/hooks/use-agreement'
import { formatUpdatedAt, splitParagraphs } from '../../features/launch/privacy-consent'

export default function ExpertAgreementPage() {
  const view = useAgreement('expert')
  return (
    <AgreementDocument
      view={view}
      splitParagraphs={splitParagraphs}
      formatUpdatedAt={formatUpdatedAt}
    />
  )
}
