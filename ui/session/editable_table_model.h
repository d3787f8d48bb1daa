// A table of text cells that the user edits in the export form, validated as
// they type: each subclass says what a valid cell is, invalid cells are
// tinted and carry the reason as tooltip, and the form reads the rows back
// only when every cell is valid.
#pragma once

#include <QAbstractTableModel>
#include <QStringList>
#include <QVector>

namespace t2n::ui {

class EditableTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Role { ErrorRole = Qt::UserRole + 1 };

    EditableTableModel(QStringList headers, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;
    bool removeRows(int row, int count, const QModelIndex& parent = {}) override;

    void appendRow(const QStringList& cells);
    void setRows(const QVector<QStringList>& rows);
    const QVector<QStringList>& rows() const { return rows_; }
    QString cell(int row, int column) const;

    /// Why the cell is invalid, or an empty string.
    QString errorAt(int row, int column) const;
    /// Every error, "row 2, symbol: ..." (rowLabel() for "row 2") per line;
    /// empty when all is valid.
    QStringList errors() const;
    bool isValid() const { return errors().isEmpty(); }

Q_SIGNALS:
    void validityChanged(bool valid);

protected:
    /// The subclass's rule for one cell (the whole row is given for context).
    virtual QString validate(int row, int column, const QStringList& cells) const = 0;
    /// How errors name a row: "row 2" unless the subclass knows better.
    virtual QString rowLabel(int row) const;
    /// Re-checks after something the rules depend on changed (e.g. input names).
    void revalidate();

private:
    QStringList headers_;
    QVector<QStringList> rows_;
    bool lastValid_ = true;
};

} // namespace t2n::ui
