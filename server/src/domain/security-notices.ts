import { maskMobile } from './identity'

/** 2030-01-01 16:00 in China Standard Time (UTC+8, no daylight saving), whatever the server's zone. */
export function chinaTime(at: Date): string {
  return new Date(at.getTime() + 8 * 3600_000).toISOString().slice(0, 16).replace('T', ' ')
}

/** To the number that was just replaced: the person may not be the one who changed it. */
export function phoneChangedNotice(newMobile: string, at: Date): string {
  return `【医影通】您的账号已于 ${chinaTime(at)}（北京时间）将绑定手机号更换为 ${maskMobile(newMobile)}，本号码不再用于登录。如非本人操作，请立即联系客服冻结账号。`
}

/** To the phone whose account was merged into another (a WeChat account). */
export function accountMergedNotice(at: Date): string {
  return `【医影通】本号码注册的账号已于 ${chinaTime(at)}（北京时间）并入一个微信登录的账号，原账号的资料已转入该账号。如非本人操作，请立即联系客服。`
}
