import { View, Text } from '@tarojs/components'
import Taro from '@tarojs/taro'
import { Cell } from '@nutui/nutui-react-taro'
import { ArrowRight } from '@nutui/icons-react-taro'
import { MINE_GROUPS, type MineEntry } from '../entries'
import './mine-view.scss'

export interface MineViewProps {
  loggedIn: boolean
  userName: string
}

const LOGIN_PATH = '/pages/login/login'

function open(entry: MineEntry, loggedIn: boolean) {
  const url =
    entry.needsLogin && !loggedIn
      ? `${LOGIN_PATH}?redirect=${encodeURIComponent(entry.path)}`
      : entry.path
  void Taro.navigateTo({ url })
}

export function MineView({ loggedIn, userName }: MineViewProps) {
  return (
    <View className="mine">
      <View
        className="mine__header"
        onClick={loggedIn ? undefined : () => Taro.navigateTo({ url: LOGIN_PATH })}
      >
        <View className="mine__avatar">{loggedIn && userName ? userName.slice(0, 1) : '医'}</View>
        <View className="mine__who">
          <Text className="mine__name">{loggedIn ? userName || '用户' : '登录 / 注册'}</Text>
          <Text className="mine__hint">
            {loggedIn ? '查看和管理您的影像、报告与咨询' : '登录后查看您在各医院的影像和报告'}
          </Text>
        </View>
      </View>
      {MINE_GROUPS.map((group, index) => (
        <Cell.Group key={index} className="mine__group">
          {group.map((entry) => (
            <Cell
              key={entry.key}
              title={entry.text}
              extra={<ArrowRight size={12} color="#c8c9cc" />}
              clickable
              onClick={() => open(entry, loggedIn)}
            />
          ))}
        </Cell.Group>
      ))}
    </View>
  )
}
