import { View, Text } from '@tarojs/components'
import {
  Articles,
  Ask,
  Backtop,
  Doctor,
  Image,
  Location,
  Order,
  Scan,
  Search,
  Video,
} from '@nutui/icons-react-taro'
import { COMING_SOON } from '@/components/under-construction'
import { isComingSoon } from '@/routes'
import { THEME } from '@/theme'
import { navigate } from '@/services/navigate'
import { HOME_ENTRIES, type HomeEntry } from '../entries'
import './home-view.scss'

const ICONS: Record<HomeEntry['icon'], typeof Doctor> = {
  image: Image,
  report: Order,
  upload: Backtop,
  doctor: Doctor,
  ask: Ask,
  articles: Articles,
  location: Location,
  video: Video,
  scan: Scan,
}

export function HomeView() {
  return (
    <View className="home">
      <View className="home__hero">
        <Text className="home__hero-title">您的影像与报告，随身可查</Text>
        <Text className="home__hero-text">
          就诊医院的检查影像、报告一处查看，授权医生阅片，在线请专家会诊
        </Text>
      </View>
      <View className="home__search" role="search" onClick={() => void navigate('search')}>
        <Search size={16} color="#999999" />
        <Text className="home__search-text">搜索文章、视频、医院、专家</Text>
      </View>
      <View className="home__grid">
        {HOME_ENTRIES.map((entry) => {
          const Icon = ICONS[entry.icon]
          return (
            <View
              key={entry.key}
              className="home__entry"
              onClick={() => void navigate(entry.route)}
            >
              <View className="home__entry-icon">
                <Icon size={24} color={THEME.primary} />
              </View>
              <Text className="home__entry-text">{entry.text}</Text>
              {isComingSoon(entry.route) && <Text className="home__entry-soon">{COMING_SOON}</Text>}
            </View>
          )
        })}
      </View>
      <View className="home__note">
        <Text>影像与报告仅本人及您授权的医生可见</Text>
      </View>
    </View>
  )
}
