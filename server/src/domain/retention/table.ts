import { RETENTION_RULES } from '@contract/main/retention'
import { ENFORCEMENT } from './schedule'

/**
 * The schedule as the README's table (section "数据保留期限"): written from the rules, so a test can
 * hold the README to them (test/retention/readme.test.ts) instead of two copies drifting apart.
 */
export function retentionTableMarkdown(): string {
  const cell = (text: string) => text.replaceAll('|', '\\|')
  const rows = RETENTION_RULES.map((rule) => {
    const enforcement = ENFORCEMENT[rule.id]
    const how =
      'kept' in enforcement
        ? '从不清除'
        : 'pluggedIn' in enforcement
          ? `由 ${enforcement.pluggedIn} 接入清理`
          : '清理任务'
    return `| ${cell(rule.what)} | ${cell(rule.keptFor)} | ${cell(rule.from)} | ${cell(rule.why)} | ${cell(rule.endDetail)} | \`${rule.id}\`（${how}） |`
  })
  return [
    '| 记录 | 保留多久 | 自何时起 | 依据 | 到期后 | 规则 |',
    '|---|---|---|---|---|---|',
    ...rows,
  ].join('\n')
}
