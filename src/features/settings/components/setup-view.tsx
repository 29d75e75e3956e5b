import { Text, View } from '@tarojs/components'
import { Button, Cell } from '@nutui/nutui-react-taro'
import { ArrowRight } from '@nutui/icons-react-taro'
import { SETUP_GROUPS, type SetupEntry } from '../entries'
import type { SetupModel } from '../hooks/use-setup'
import './setup-view.scss'

export interface SetupViewProps {
  model: SetupModel
}

function extraOf(entry: SetupEntry, model: SetupModel): string {
  if (!model.signedIn) return ''
  if (entry.key === 'phone') return model.mobileMasked ?? '未绑定'
  if (entry.key === 'idcard') return model.idCardText
  return ''
}

export function SetupView({ model }: SetupViewProps) {
  const groups = SETUP_GROUPS.map((group) =>
    // Deleting an account that is not signed in means nothing.
    group.filter((entry) => model.signedIn || entry.key !== 'delete'),
  ).filter((group) => group.length > 0)
  return (
    <View className="setup">
      {groups.map((group, index) => (
        <Cell.Group key={index} className="setup__group">
          {group.map((entry) => (
            <Cell
              key={entry.key}
              title={entry.text}
              extra={
                <View className="setup__extra">
                  <Text className="setup__extra-text">{extraOf(entry, model)}</Text>
                  <ArrowRight size={12} color="#c8c9cc" />
                </View>
              }
              clickable
              onClick={() => model.open(entry)}
            />
          ))}
        </Cell.Group>
      ))}
      {model.signedIn && (
        <View className="setup__logout">
          <Button block disabled={model.busy} onClick={model.logout}>
            退出登录
          </Button>
        </View>
      )}
    </View>
  )
}
