import { Text, View } from '@tarojs/components'
import { Button, Popup } from '@nutui/nutui-react-taro'
import { type GlossaryTerm, KNOWLEDGE_MESSAGES } from '@/services/knowledge'

export interface TermSheetProps {
  term: GlossaryTerm
  visible: boolean
  onClose: () => void
}

/** One term explained, from the bottom: what it means, what usually follows (with its source). */
export function TermSheet({ term, visible, onClose }: TermSheetProps) {
  return (
    <Popup visible={visible} position="bottom" round title={term.term} onClose={onClose}>
      <View className="term-sheet">
        {term.aliases.length > 0 && (
          <Text className="term-sheet__aliases">也写作：{term.aliases.slice(0, 4).join('、')}</Text>
        )}
        <Text className="term-sheet__text">{term.explanation}</Text>
        {term.followUp && (
          <View className="term-sheet__follow-up">
            <Text className="term-sheet__heading">通常怎么随访</Text>
            <Text className="term-sheet__text">{term.followUp.text}</Text>
            <Text className="term-sheet__source">来源：{term.followUp.source}</Text>
          </View>
        )}
        <Text className="term-sheet__caveat">{KNOWLEDGE_MESSAGES.caveat}</Text>
        <Button className="term-sheet__button" type="primary" block onClick={onClose}>
          知道了
        </Button>
      </View>
    </Popup>
  )
}
