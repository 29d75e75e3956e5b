import { useState } from 'react'
import Taro from '@tarojs/taro'
import { RequireLogin } from '../../components/require-login'
import { AddAdultView, AddChildView } from '../../features/family/components/add-member-view'
import { FamilyView } from '../../features/family/components/family-view'
import {
  InviteGuardianForm,
  type FamilyMember,
} from '../../features/family/components/guardians-view'
import { useAddAdult, useAddChild } from '../../features/family/hooks/use-add-member'
import { useFamily, type FamilyModel } from '../../features/family/hooks/use-family'

type Mode = 'list' | 'child' | 'adult' | 'invite'

const TITLES: Record<Mode, string> = {
  list: '亲情卡',
  child: '添加儿童',
  adult: '添加成年家人',
  invite: '邀请共同监护人',
}

interface FormProps {
  done: () => void
  cancel: () => void
}

function AddChild({ done, cancel }: FormProps) {
  return <AddChildView model={useAddChild(done)} onCancel={cancel} />
}

function AddAdult({ done, cancel }: FormProps) {
  return <AddAdultView model={useAddAdult(done)} onCancel={cancel} />
}

function FamilyContent() {
  const model: FamilyModel = useFamily()
  const [mode, setModeState] = useState<Mode>('list')
  const [inviting, setInviting] = useState<FamilyMember | null>(null)
  const setMode = (next: Mode) => {
    setModeState(next)
    // A form left scrolled down must not leave the list it returns to scrolled as well.
    void Taro.pageScrollTo({ scrollTop: 0, duration: 0 }).catch(() => undefined)
    void Taro.setNavigationBarTitle({ title: TITLES[next] }).catch(() => undefined)
  }
  const added = () => {
    setMode('list')
    model.reload()
  }
  const cancel = () => setMode('list')
  if (mode === 'child') return <AddChild done={added} cancel={cancel} />
  if (mode === 'adult') return <AddAdult done={added} cancel={cancel} />
  if (mode === 'invite' && inviting) return <InviteGuardianForm member={inviting} onDone={cancel} />
  return (
    <FamilyView
      model={model}
      onAddChild={() => setMode('child')}
      onAddAdult={() => setMode('adult')}
      onInviteGuardian={(member) => {
        setInviting(member)
        setMode('invite')
      }}
    />
  )
}

/** 亲情卡 (关系卡, issue 9): family members whose images and reports the person may see. */
export default function RelationCardPage() {
  return (
    <RequireLogin text="登录后管理亲情卡">
      <FamilyContent />
    </RequireLogin>
  )
}
