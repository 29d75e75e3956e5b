import { UnderConstruction } from '../../components/under-construction'

export default function QuestionListQuestionListPage() {
  return <UnderConstruction />
}
