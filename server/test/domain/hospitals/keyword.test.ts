import assert from 'node:assert/strict'
import { test } from 'node:test'
import { addHospital } from '../../../src/domain/hospitals'
import { listImageHospitals } from '../../../src/domain/hospitals/areas'
import { pageHospitals } from '../../../src/domain/hospitals/directory'
import { openTestDatabase } from '../../helpers'

/*
 * The hospital pickers find a hospital by the words typed the way 搜索 does (db/contains.ts): a
 * Latin word in either case on both databases, and %, _ and \ as the characters themselves.
 */

const T0 = new Date('2026-11-28T08:00:00.000Z')

test('a hospital keyword matches Latin letters in either case and wildcards literally', async () => {
  const handle = openTestDatabase()
  await handle.migrate()
  const { db } = handle
  await addHospital(db, { name: 'PUMCH 协和示例医院', level: '三级甲等' }, T0)
  await addHospital(db, { name: '示例100%医院', level: '二级' }, T0)
  await addHospital(db, { name: '示例第一医院', level: '二级' }, T0)

  for (const search of [
    (keyword: string) => pageHospitals(db, { keyword }),
    (keyword: string) => listImageHospitals(db, { keyword }),
  ]) {
    assert.deepEqual(
      (await search('pumch')).items.map((hospital) => hospital.name),
      ['PUMCH 协和示例医院'],
    )
    assert.deepEqual(
      (await search('100%')).items.map((hospital) => hospital.name),
      ['示例100%医院'],
    )
    assert.equal((await search('%')).total, 1)
    assert.equal((await search('示例')).total, 3)
  }
})
