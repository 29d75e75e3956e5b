import { RequireLogin } from '@/components/require-login'
import { ClaimQueryView } from '../../features/claims/components/claim-query-view'
import { useClaimQuery } from '../../features/claims/hooks/use-claim-query'

function ClaimQuery() {
  return <ClaimQueryView view={useClaimQuery()} />
}

/** 影像查询: find one exam by hospital + 检查号 + 姓名 and add it after an SMS proof. */
export default function PersonalImageIndexWeixinPage() {
  return (
    <RequireLogin text="登录后才能查询并添加您的检查">
      <ClaimQuery />
    </RequireLogin>
  )
}
