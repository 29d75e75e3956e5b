import { useRouter } from '@tarojs/taro'
import { useMemo } from 'react'
import { decodeParams } from '@/utils/route-params'

/**
 * The page's query parameters as they were written (`?name=第一医院` reads 第一医院): Taro hands them
 * over still percent-encoded, in H5 and in the mini-program, so every page reads them here, decoded
 * exactly once, and none decodes by hand.
 */
export function useParams(): Partial<Record<string, string>> {
  const { params } = useRouter()
  return useMemo(() => decodeParams(params), [params])
}
