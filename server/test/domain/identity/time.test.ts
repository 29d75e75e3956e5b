// test-server: no database
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { DAY, describeWait, HOUR, MINUTE, SECOND } from '../../../src/domain/identity/time'

// Issue 6 retest, point 6: 60 001 ms was "2 分钟" and 1 h + 1 ms "2 小时".

test('describeWait rounds minutes and hours to the nearest, seconds up, never to 0', () => {
  const cases: [number, string][] = [
    [0, '1 秒'],
    [1, '1 秒'],
    [45 * SECOND + 1, '46 秒'],
    [MINUTE, '60 秒'],
    [MINUTE + 1, '1 分钟'],
    [MINUTE + 29 * SECOND, '1 分钟'],
    [MINUTE + 30 * SECOND, '2 分钟'],
    [15 * MINUTE - 5, '15 分钟'],
    [59 * MINUTE + 29 * SECOND, '59 分钟'],
    [59 * MINUTE + 40 * SECOND, '60 分钟'],
    [HOUR, '60 分钟'],
    [HOUR + 1, '1 小时'],
    [2 * HOUR + 1, '2 小时'],
    [DAY - 1, '24 小时'],
  ]
  for (const [ms, words] of cases) assert.equal(describeWait(ms), words, String(ms))
})
