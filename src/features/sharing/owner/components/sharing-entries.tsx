import { Text, View } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import { navigate } from '@/services/navigate'
import type { RecordOwner } from '@/services/records'
import './sharing-entries.scss'

/**
 * The person a grant made from this record is for: a family member's record is granted as theirs
 * (createGrant's personId, listGrants' personId); the caller's own needs none.
 */
export function grantPersonOf(owner: RecordOwner): string | undefined {
  return owner.relation === 'family' ? owner.personId : undefined
}

/** The 授权 button of a detail page's header or action bar. */
export function ShareButton({ onClick }: { onClick: () => void }) {
  return (
    // Wrapped: NutUI's own margin rules win over a class on the button itself.
    <View className="share-button-wrap">
      <Button className="share-button" size="small" type="primary" onClick={onClick}>
        授权
      </Button>
    </View>
  )
}

/** 谁看过: the exam's views through any grant, and its grants (授权记录 narrowed to it). */
export function WhoViewedEntry({ examId, personId }: { examId: string; personId?: string }) {
  return (
    <View
      className="who-viewed"
      onClick={() => void navigate('grantList', { examId, ...(personId ? { personId } : {}) })}
    >
      <Text className="who-viewed__title">谁看过</Text>
      <Text className="who-viewed__hint">授权与查看记录 ›</Text>
    </View>
  )
}
