import { useDidShow } from '@tarojs/taro'
import { useRef } from 'react'
import { useResource, type Resource } from '@/hooks/use-resource'
import type { ReceivedGrant } from '@/services/shares'
import { loadReceivedGrants } from '../received-grants'

/** 消息处理: the records patients authorised me to see, asked again each time the page shows. */
export function useToDo(): Resource<ReceivedGrant[]> {
  const grants = useResource('to-do', () => loadReceivedGrants(), {
    errorMessage: '加载失败，请稍后重试',
  })
  const shown = useRef(false)
  useDidShow(() => {
    // The first show is the first load's; later ones come back from an opened record.
    if (shown.current) void grants.reload()
    shown.current = true
  })
  return grants
}
