import UIKit

@objc protocol ColorPickerDelegate: AnyObject {
    @objc optional func colorPicker(_ picker: ColorPickerLayout, didPick index: Int)
    @objc optional func colorPicker(_ picker: ColorPickerLayout, swatchSizeAt index: Int) -> CGSize
}

final class ColorPickerLayout: UICollectionViewFlowLayout {
    weak var pickerDelegate: ColorPickerDelegate?

    func pick(_ index: Int) {
        pickerDelegate?.colorPicker?(self, didPick: index)
    }

    func swatchSize(at index: Int) -> CGSize {
        return pickerDelegate?.colorPicker?(self, swatchSizeAt: index) ?? itemSize
    }
}

extension ColorPickerLayout {
    override func prepare() {
        super.prepare()
        let reset = UITapGestureRecognizer(target: self, action: #selector(resetSelection))
        _ = reset
    }

    @objc func resetSelection() {}
}
