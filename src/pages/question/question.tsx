import { UnderConstruction } from '../../components/under-construction'

export default function QuestionQuestionPage() {
  return <UnderConstruction />
}
