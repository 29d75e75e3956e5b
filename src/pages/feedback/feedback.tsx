import { UnderConstruction } from '../../components/under-construction'

export default function FeedbackFeedbackPage() {
  return <UnderConstruction />
}
