import type { Grant, GrantRecord, GrantView } from '@/services/grants'
import { timeFormat } from '@/utils/time'

/** How the owner's pages word a grant and a view. */

const WHEN = 'yyyy-mm-dd hh:MM'

export function formatTime(iso: string | null): string {
  return iso ? timeFormat(iso, WHEN) : '—'
}

/** 影像 · 胸部 CT 平扫 (2026-11-20), 报告 · … (隐私) */
export function recordLabel(record: GrantRecord): string {
  const kind = record.kind === 'exam' ? '影像' : '报告'
  const date = record.studyDate ? `（${record.studyDate}）` : ''
  const privacy = record.private ? ' · 隐私' : ''
  return `${kind} · ${record.title || '未命名检查'}${date}${privacy}`
}

/** To whom: 医生/亲友 张* 138****0000, or 链接（需提取码）. */
export function audienceLabel(grant: Grant): string {
  if (grant.audience === 'link') {
    const limit = grant.maxViews ? ` · 限 ${grant.maxViews} 次` : ''
    return `${grant.pickupCode ? '链接（需提取码）' : '链接（无提取码）'}${limit}`
  }
  const who = grant.grantee
  if (!who) return '账号'
  const role = who.role === 'expert' ? '医生/专家' : '亲友账号'
  const name = [who.nameMasked, who.mobileMasked].filter(Boolean).join(' ')
  return `${role} ${name || '（未留姓名）'}`
}

/** 已查看 3 次 · 最近 2026-11-20 10:00, or 尚未查看. */
export function viewsLabel(grant: Grant): string {
  if (grant.views === 0 && !grant.lastViewAt) return '尚未查看'
  const opens = grant.audience === 'link' && grant.maxViews ? ` · 已打开 ${grant.opens} 次` : ''
  return `已查看 ${grant.views} 次${opens} · 最近 ${formatTime(grant.lastViewAt)}`
}

/** 有效期至 …, or for an ended grant when it was revoked. */
export function expiryLabel(grant: Grant): string {
  if (grant.status === 'revoked' && grant.revokedAt) return `撤销于 ${formatTime(grant.revokedAt)}`
  return `有效期至 ${formatTime(grant.expiresAt)}`
}

/** A view's time: once, or from–to when the session went on. */
export function viewTime(view: GrantView): string {
  const first = formatTime(view.firstAt)
  if (view.lastAt === view.firstAt) return first
  const last = formatTime(view.lastAt)
  return last === first
    ? first
    : `${first} 至 ${last.slice(first.slice(0, 10) === last.slice(0, 10) ? 11 : 0)}`
}
