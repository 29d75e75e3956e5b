import { Image, Text, View } from '@tarojs/components'
import { useState } from 'react'
import { RefreshList } from '@/components/refresh-list'
import { TabStrip } from '@/components/tab-strip'
import {
  FAVOURITE_KIND_LABELS,
  FAVOURITE_KINDS,
  type Favourite,
  type FavouriteKind,
} from '@/services/favourites'
import { mediaUrl } from '@/services/media'
import { timeFrom } from '@/utils/time'
import { type Undo, useFavouriteList } from '../hooks/use-favourites'
import './favourites.scss'

function FavouriteRow({
  item,
  onOpen,
  onRemove,
}: {
  item: Favourite
  onOpen: () => void
  onRemove: () => void
}) {
  return (
    <View className="favourites__item">
      <View className="favourites__main" onClick={onOpen}>
        {item.picturePath && (
          <Image
            className="favourites__picture"
            src={mediaUrl(item.picturePath)}
            mode="aspectFill"
            lazyLoad
          />
        )}
        <View className="favourites__text">
          <Text className="favourites__title">{item.title}</Text>
          {item.subtitle && <Text className="favourites__subtitle">{item.subtitle}</Text>}
          <Text className="favourites__time">收藏于 {timeFrom(item.createdAt)}</Text>
        </View>
      </View>
      <Text className="favourites__remove" onClick={onRemove}>
        取消收藏
      </Text>
    </View>
  )
}

function KindList({
  kind,
  onTotals,
  onOpen,
  undo,
}: {
  kind: FavouriteKind
  onTotals: (totals: Record<FavouriteKind, number>) => void
  onOpen: (item: Favourite) => void
  undo: Undo
}) {
  const list = useFavouriteList(kind, onTotals)
  return (
    <RefreshList
      list={list}
      keyOf={(item) => `${item.kind}:${item.targetId}`}
      renderItem={(item) => (
        <FavouriteRow
          item={item}
          onOpen={() => onOpen(item)}
          onRemove={() => void undo.remove(item, list)}
        />
      )}
      emptyText={`还没有收藏${FAVOURITE_KIND_LABELS[kind]}`}
    />
  )
}

/**
 * 我的收藏: a tab per kind with its count. Each item is drawn from what the server says (title,
 * subtitle, picture, link), so a new kind (the consultation issue's questions and doctors) needs
 * no change here.
 */
export function FavouritesView({
  undo,
  onOpen,
}: {
  undo: Undo
  onOpen: (item: Favourite) => void
}) {
  const [kind, setKind] = useState<FavouriteKind>(FAVOURITE_KINDS[0])
  const [totals, setTotals] = useState<Record<FavouriteKind, number> | null>(null)
  return (
    <View className="favourites">
      <TabStrip
        tabs={FAVOURITE_KINDS.map((key) => ({
          key,
          title: FAVOURITE_KIND_LABELS[key],
          count: totals ? totals[key] : undefined,
        }))}
        active={kind}
        onChange={setKind}
      />
      <KindList key={kind} kind={kind} onTotals={setTotals} onOpen={onOpen} undo={undo} />
      {undo.removed && (
        <View className="favourites__undo" role="status">
          <Text className="favourites__undo-text">已取消收藏“{undo.removed.title}”</Text>
          <Text className="favourites__undo-action" onClick={() => void undo.undo()}>
            撤销
          </Text>
        </View>
      )}
    </View>
  )
}
