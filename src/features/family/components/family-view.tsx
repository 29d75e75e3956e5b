import { Text, View } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import { PageState } from '@/components/page-state'
import {
  FAMILY_MEMBERS_MAX,
  memberLabel,
  type FamilyManager,
  type FamilyMember,
} from '@/services/family'
import { timeFormat } from '@/utils/time'
import type { FamilyModel } from '../hooks/use-family'
import { useGuardianInvitations } from '../hooks/use-guardians'
import { GuardianInvitationsView } from './guardians-view'
import './family.scss'

export interface FamilyViewProps {
  model: FamilyModel
  onAddChild: () => void
  onAddAdult: () => void
  /** 邀请监护人 on a child's row: the other parent, by phone. */
  onInviteGuardian: (member: FamilyMember) => void
}

function MemberRow({
  member,
  onRemove,
  onInvite,
}: {
  member: FamilyMember
  onRemove: () => void
  onInvite: () => void
}) {
  return (
    <View className="family__row">
      <View className="family__who">
        <View className="family__name-line">
          <Text className="family__name">{memberLabel(member)}</Text>
          <Text className={`family__tag family__tag--${member.kind}`}>
            {member.kind === 'child' ? '儿童' : '成人'}
          </Text>
        </View>
        <Text className="family__note">
          {member.kind === 'adult' && member.mobileMasked && member.nameMasked
            ? `${member.mobileMasked} · `
            : ''}
          添加于 {timeFormat(member.createdAt, 'yyyy-mm-dd')}
        </Text>
      </View>
      {member.kind === 'child' && (
        <Text className="family__end family__end--invite" onClick={onInvite}>
          邀请监护人
        </Text>
      )}
      <Text className="family__end" onClick={onRemove}>
        解除
      </Text>
    </View>
  )
}

function ManagerRow({ manager, onLeave }: { manager: FamilyManager; onLeave: () => void }) {
  return (
    <View className="family__row">
      <View className="family__who">
        <Text className="family__name">{manager.nameMasked ?? manager.mobileMasked ?? '家人'}</Text>
        <Text className="family__note">
          您是对方的{manager.relationLabel} · 添加于 {timeFormat(manager.createdAt, 'yyyy-mm-dd')}
        </Text>
      </View>
      <Text className="family__end" onClick={onLeave}>
        解除
      </Text>
    </View>
  )
}

/** 亲情卡: 本人, the members I manage (with 添加 and 解除), and the people who manage me. */
export function FamilyView({ model, onAddChild, onAddAdult, onInviteGuardian }: FamilyViewProps) {
  const { family } = model
  const invitations = useGuardianInvitations()
  if (family.status === 'loading') return <PageState status="loading" />
  if (family.status === 'error') {
    return <PageState status="error" message={family.message} onRetry={model.reload} />
  }
  const { self, members, managers } = family.data
  const full = members.length >= FAMILY_MEMBERS_MAX
  return (
    <View className="family">
      <View className="family__self">
        <Text className="family__self-label">本人</Text>
        <Text className="family__self-name">{self.nameMasked ?? '未实名'}</Text>
      </View>

      <GuardianInvitationsView
        items={invitations.items}
        onAnswered={() => {
          invitations.reload()
          model.reload()
        }}
      />

      <Text className="family__section">我管理的家人</Text>
      <View className="family__card">
        {members.length === 0 ? (
          <Text className="family__empty">
            还没有添加家人。添加后可在“我的影像”“我的报告”切换当前就诊人，查看家人的影像与报告。
          </Text>
        ) : (
          members.map((member) => (
            <MemberRow
              key={member.id}
              member={member}
              onRemove={() => void model.remove(member)}
              onInvite={() => onInviteGuardian(member)}
            />
          ))
        )}
      </View>
      {full ? (
        <Text className="family__tip">最多添加 {FAMILY_MEMBERS_MAX} 位家人</Text>
      ) : (
        <View className="family__actions">
          <Button className="family__add" type="primary" onClick={onAddChild}>
            添加儿童
          </Button>
          <Button className="family__add" type="primary" fill="outline" onClick={onAddAdult}>
            添加成年家人
          </Button>
        </View>
      )}
      <Text className="family__tip">
        未满 14
        周岁的儿童由监护人添加，另一位监护人可由您邀请；成年家人需对方手机验证码同意，对方可随时在自己的账号中解除。
      </Text>

      {managers.length > 0 && (
        <>
          <Text className="family__section">管理我的人</Text>
          <View className="family__card">
            {managers.map((manager) => (
              <ManagerRow
                key={manager.id}
                manager={manager}
                onLeave={() => void model.leave(manager)}
              />
            ))}
          </View>
          <Text className="family__tip">他们可以查看您的影像与报告；解除后立即失效。</Text>
        </>
      )}
    </View>
  )
}
