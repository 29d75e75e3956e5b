import { PageState } from '@/components/page-state'
import { back } from '@/services/navigate'

/**
 * An article or video that does not exist (a wrong or cut-off link, no id, or taken down): what is
 * wrong and 返回 (home when the link was opened first), never a 重试 that cannot help.
 */
export function ContentMissing({ message }: { message: string }) {
  return (
    <PageState
      status="empty"
      message={message}
      action={{ text: '返回', onClick: () => void back() }}
    />
  )
}
