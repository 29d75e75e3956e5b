import type { AuthorisedImage } from '@/services/records'

/**
 * Authorised images shared by address while anyone shows them: the thumbnail 影像详情 shows is the
 * viewer's first preview, painted from the same object URL with no second request (issue 8,
 * tap → first pixels). Each holder counts; the URL is released when the last one lets go, so a long
 * scroll of thumbnails still does not keep every image alive.
 *
 * The last holder's release waits for the next task: a screen that unmounts while the next one
 * mounts with the same picture (专家认证's 已驳回 → its form) hands the image over instead of
 * revoking an object URL the new screen's first render is already showing (ERR_FILE_NOT_FOUND).
 * React runs the old screen's cleanups and the new one's effects in one flush, so the new hold
 * arrives before the deferred release and cancels it.
 */

type Download = (url: string) => Promise<AuthorisedImage>

interface Entry {
  holders: number
  /** The pending release once the last holder let go, cancelled by a new hold. */
  releasing: ReturnType<typeof setTimeout> | null
  image: Promise<AuthorisedImage>
  /** Set once the download has answered, for a synchronous look-up. */
  src: string | null
}

const entries = new Map<string, Entry>()

export interface Held {
  image: Promise<AuthorisedImage>
  /** Lets go of this hold; the last one releases the image. Safe to call twice. */
  release: () => void
}

/** Takes a hold on the image at `url`, downloading it unless someone holds it already. */
export function holdAuthorisedImage(url: string, download: Download): Held {
  let entry = entries.get(url)
  if (!entry) {
    const created: Entry = { holders: 0, releasing: null, src: null, image: download(url) }
    created.image.then(
      (image) => {
        created.src = image.src
      },
      () => {
        // A failed download is not kept: the next holder tries again.
        if (entries.get(url) === created) entries.delete(url)
      },
    )
    entries.set(url, created)
    entry = created
  }
  const held = entry
  if (held.releasing !== null) {
    clearTimeout(held.releasing)
    held.releasing = null
  }
  held.holders += 1
  let released = false
  return {
    image: held.image,
    release: () => {
      if (released) return
      released = true
      held.holders -= 1
      if (held.holders > 0) return
      held.releasing = setTimeout(() => {
        held.releasing = null
        if (held.holders > 0) return
        if (entries.get(url) === held) entries.delete(url)
        held.image.then(
          (image) => image.release(),
          () => undefined,
        )
      }, 0)
    },
  }
}

/** The object URL of an image someone holds and that has arrived, else null. */
export function heldImageSrc(url: string | null | undefined): string | null {
  return (url && entries.get(url)?.src) || null
}

/** How many addresses are held (tests). */
export function heldImageCount(): number {
  return entries.size
}
