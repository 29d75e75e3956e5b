import type { DB } from '../../db'
import type { ObjectStore } from '../../storage/object-store'

/*
 * What a deleted account leaves of expert certification (README.md, "Account deletion"). Inside the
 * deletion's transaction the public profile, the hospital requests and every favourite of the
 * expert go (and their own report templates and unsigned opinion drafts), and the applications lose what identifies the person (certificate numbers, the texts);
 * the certificate photos' bytes live in the object store, which a transaction cannot roll back, so
 * the purge removes them afterwards (each photo's bytes, then its row, then the emptied
 * application): a crash at any point leaves rows that the next purge finishes, never a row pointing
 * at nothing. The operators' audit lines (who decided which application id, and when) stay as their
 * record of the decision; they hold no certificate data.
 */

export async function forgetExpertOf(db: DB, userId: string, now: Date): Promise<void> {
  await db.deleteFrom('experts').where('user_id', '=', userId).execute()
  await db
    .deleteFrom('favourites')
    .where('kind', '=', 'expert')
    .where('target_id', '=', userId)
    .execute()
  await db.deleteFrom('hospital_requests').where('user_id', '=', userId).execute()
  // The expert's own report templates and unsigned drafts are nobody's record (domain/opinions);
  // signed opinions stay with their consultations.
  await db.deleteFrom('opinion_template_variants').where('expert_user_id', '=', userId).execute()
  await db.deleteFrom('opinion_drafts').where('expert_user_id', '=', userId).execute()
  await db
    .updateTable('expert_applications')
    .set({
      // An open application is no longer anyone's: it leaves the operators' queue.
      status: 'withdrawn',
      practice_cert_encrypted: null,
      qualification_cert_encrypted: null,
      practice_scope: null,
      specialities: '[]',
      introduction: '',
      updated_at: now.toISOString(),
    })
    .where('user_id', '=', userId)
    .execute()
}

/** The purge's part: photos and applications of deleted accounts. Answers the rows removed. */
export async function purgeDeletedApplicants(db: DB, store: ObjectStore): Promise<number> {
  const photos = await db
    .selectFrom('expert_application_photos')
    .innerJoin(
      'expert_applications',
      'expert_applications.id',
      'expert_application_photos.application_id',
    )
    .innerJoin('users', 'users.id', 'expert_applications.user_id')
    .select(['expert_application_photos.id', 'expert_application_photos.storage_key'])
    .where('users.deleted_at', 'is not', null)
    .limit(500)
    .execute()
  let removed = 0
  for (const photo of photos) {
    await store.delete(photo.storage_key)
    const result = await db
      .deleteFrom('expert_application_photos')
      .where('id', '=', photo.id)
      .executeTakeFirst()
    removed += Number(result.numDeletedRows)
  }
  const applications = await db
    .deleteFrom('expert_applications')
    .where('user_id', 'in', (eb) =>
      eb.selectFrom('users').select('id').where('deleted_at', 'is not', null),
    )
    .where('id', 'not in', (eb) =>
      eb.selectFrom('expert_application_photos').select('application_id'),
    )
    .executeTakeFirst()
  return removed + Number(applications.numDeletedRows)
}
